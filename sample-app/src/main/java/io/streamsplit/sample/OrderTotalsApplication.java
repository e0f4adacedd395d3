package io.streamsplit.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * StreamSplit's sample: per-customer order totals. With no Kafka configured it runs on the
 * dev-mode in-JVM broker and writes its own demo orders; point streamsplit.kafka.bootstrap-servers
 * at a real cluster to run it for real.
 */
@SpringBootApplication
public class OrderTotalsApplication {

    public static void main(String[] args) {
        SpringApplication.run(OrderTotalsApplication.class, args);
    }
}
