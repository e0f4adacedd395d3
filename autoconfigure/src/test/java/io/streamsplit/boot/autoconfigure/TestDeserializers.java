package io.streamsplit.boot.autoconfigure;

import io.streamsplit.connector.kafka.source.KafkaRecordDeserializer;
import io.streamsplit.connector.kafka.source.KafkaRecordEmitter;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** User beans of the kinds a source can name. */
final class TestDeserializers {

    private TestDeserializers() {}

    @Configuration(proxyBeanMethods = false)
    static class OneStringDeserializer {

        @Bean
        KafkaRecordDeserializer<String> text() {
            return record -> new String(record.value(), StandardCharsets.UTF_8);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoDeserializers {

        @Bean
        KafkaRecordDeserializer<String> text() {
            return record -> new String(record.value(), StandardCharsets.UTF_8);
        }

        @Bean
        KafkaRecordDeserializer<Integer> length() {
            return record -> record.value().length;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class RawLambdaDeserializer {

        @SuppressWarnings("rawtypes")
        @Bean
        KafkaRecordDeserializer raw() {
            KafkaRecordDeserializer<String> lambda = record -> new String(record.value(), StandardCharsets.UTF_8);
            return lambda;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class FlinkSchemaAndEmitter {

        @Bean
        SimpleStringSchema strings() {
            return new SimpleStringSchema();
        }

        @Bean
        KafkaRecordEmitter<String> words() {
            return (record, out) -> {
                for (String word : new String(record.value(), StandardCharsets.UTF_8).split(" ")) {
                    out.collect(word);
                }
            };
        }
    }

    /** Not serializable: a deserializer holding a Spring-style collaborator. */
    static final class Lookup {
        String find(String key) {
            return key;
        }
    }

    static final class LookupDeserializer implements KafkaRecordDeserializer<String> {
        private static final long serialVersionUID = 1L;
        private final Lookup lookup = new Lookup();

        @Override
        public String deserialize(org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]> record) {
            return lookup.find(new String(record.value(), StandardCharsets.UTF_8));
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class NotSerializableDeserializer {

        @Bean
        LookupDeserializer enrichingDeserializer() {
            return new LookupDeserializer();
        }
    }
}
