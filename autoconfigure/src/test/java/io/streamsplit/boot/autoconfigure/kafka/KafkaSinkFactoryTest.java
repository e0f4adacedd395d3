package io.streamsplit.boot.autoconfigure.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamsplit.boot.autoconfigure.FailureReports;
import io.streamsplit.boot.autoconfigure.OfflineContexts;
import io.streamsplit.boot.config.InvalidStreamSplitConfigurationException;
import io.streamsplit.boot.kafka.KafkaSinks;
import io.streamsplit.boot.kafka.ValueFormat;
import io.streamsplit.connector.kafka.sink.ExactlyOnceKafkaClients;
import io.streamsplit.connector.kafka.sink.RestoredTransactionsKafkaSink;
import java.util.function.Consumer;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The YAML sinks as the job and its pipelines ask for them ({@link KafkaSinks}): Flink's official KafkaSink with
 * the configured guarantee, the dead-letter sinks of the sources, uids, and the rules that fail startup by
 * property path.
 */
class KafkaSinkFactoryTest {

    private final ApplicationContextRunner runner = OfflineContexts.runner()
            .withPropertyValues(
                    "streamsplit.kafka.sources.orders.topics=orders",
                    "streamsplit.kafka.sources.orders.format=string",
                    "streamsplit.kafka.sinks.totals.topic=totals",
                    "streamsplit.kafka.sinks.totals.format=string",
                    "streamsplit.kafka.sinks.audit.topic=audit",
                    "streamsplit.kafka.sinks.audit.format=json",
                    "streamsplit.kafka.sinks.audit.key=account",
                    "streamsplit.kafka.sinks.audit.delivery-guarantee=none");

    @Test
    void theConfiguredSinksAsOperatorsAndSqlSeeThem() {
        sinks(sinks -> {
            assertThat(sinks.configured()).containsOnlyKeys("totals", "audit");
            assertThat(sinks.configured().get("totals"))
                    .isEqualTo(new KafkaSinks.Configured(
                            "totals", DeliveryGuarantee.AT_LEAST_ONCE, null, ValueFormat.STRING));
            assertThat(sinks.configured().get("audit"))
                    .isEqualTo(new KafkaSinks.Configured("audit", DeliveryGuarantee.NONE, "account", ValueFormat.JSON));
        });
    }

    @Test
    void aSinkIsFlinksOfficialKafkaSinkAtLeastOnceByDefault() {
        sinks(sinks -> assertThat(sinks.create("totals", Types.STRING)).isInstanceOf(KafkaSink.class));
    }

    @Test
    void uidsDefaultToTheSinksNameAndABlankOneIsRefused() {
        sinks(sinks -> assertThat(sinks.uid("totals")).isEqualTo("streamsplit-sink-totals"));
        runner.withPropertyValues("streamsplit.kafka.sinks.totals.uid= ").run(context -> {
            KafkaSinks sinks = context.getBean(KafkaSinkFactory.class);
            assertThatThrownBy(() -> sinks.uid("totals"))
                    .isInstanceOfSatisfying(
                            InvalidStreamSplitConfigurationException.class,
                            e -> assertThat(e.getProperty()).isEqualTo("streamsplit.kafka.sinks.totals.uid"));
        });
    }

    @Test
    void aSinkNobodyConfiguredFailsNamingTheConfiguredOnes() {
        sinks(sinks -> assertThatThrownBy(() -> sinks.create("payments", Types.STRING))
                .isInstanceOfSatisfying(InvalidStreamSplitConfigurationException.class, e -> {
                    assertThat(e.getProperty()).isEqualTo("streamsplit.kafka.sinks");
                    assertThat(e.getAction()).contains("totals", "audit");
                }));
    }

    @Test
    void deadLettersOfASourceWithoutADeadLetterTopicFailNamingIt() {
        sinks(sinks -> assertThatThrownBy(() -> sinks.deadLetters("orders"))
                .isInstanceOfSatisfying(
                        InvalidStreamSplitConfigurationException.class,
                        e -> assertThat(e.getProperty())
                                .isEqualTo("streamsplit.kafka.sources.orders.dead-letter-topic")));
    }

    @Test
    void aSinkWritingIntoATopicASourceReadsIsRefusedAtStartup() {
        runner.withPropertyValues("streamsplit.kafka.sinks.totals.topic=orders").run(context -> {
            assertThat(context).hasFailed();
            assertThat(FailureReports.configurationFailure(context.getStartupFailure()))
                    .satisfies(e -> {
                        assertThat(e.getProperty()).isEqualTo("streamsplit.kafka.sinks.totals.topic");
                        assertThat(e.getProblem()).contains("source 'orders' reads");
                    });
        });
    }

    @Test
    void twoExactlyOnceSinksWithOneTransactionalIdPrefixAreRefusedAtStartup() {
        runner.withPropertyValues(
                        "streamsplit.kafka.sinks.totals.delivery-guarantee=exactly-once",
                        "streamsplit.kafka.sinks.totals.transactional-id-prefix=billing",
                        "streamsplit.kafka.sinks.audit.delivery-guarantee=exactly-once",
                        "streamsplit.kafka.sinks.audit.transactional-id-prefix=billing")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(FailureReports.configurationFailure(context.getStartupFailure()))
                            .satisfies(e -> {
                                assertThat(e.getProperty()).endsWith(".transactional-id-prefix");
                                assertThat(e.getProblem()).contains("abort each other's transactions");
                            });
                });
    }

    @Test
    void anExactlyOnceSinkOnAKafkaClientsLineItIsNotTestedWithIsRefusedWithThePomLineThatFixesIt() {
        String p = "streamsplit.kafka.sinks.totals.";
        assertThatThrownBy(() -> KafkaSinkProperties.checkKafkaClients(p, "4.5.0", "4.3.0"))
                .isInstanceOfSatisfying(InvalidStreamSplitConfigurationException.class, e -> {
                    assertThat(e.getProperty()).isEqualTo(p + "delivery-guarantee");
                    assertThat(e.getValue()).isEqualTo("exactly-once");
                    assertThat(e.getProblem())
                            .contains("kafka-clients 4.5.0", "Spring Boot 4.3.0", "4.1.x, 4.2.x, 4.4.x");
                    assertThat(e.getAction())
                            .contains("<properties><kafka.version>4.4.0</kafka.version></properties>", "at-least-once");
                });
        assertThatThrownBy(() -> KafkaSinkProperties.checkKafkaClients(p, "4.3.2", "4.1.2"))
                .isInstanceOfSatisfying(
                        InvalidStreamSplitConfigurationException.class,
                        e -> assertThat(e.getAction()).contains("<kafka.version>4.2.2</kafka.version>"));
        // the lines of Boot 4.0, 4.1 and 4.2, whatever their patch version
        for (String tested : new String[] {"4.1.0", "4.1.2", "4.2.1", "4.4.0", "4.4.3"}) {
            assertThatCode(() -> KafkaSinkProperties.checkKafkaClients(p, tested, null))
                    .as(tested)
                    .doesNotThrowAnyException();
        }
    }

    @Test
    void anExactlyOnceSinkStartsOnTheKafkaClientsOfTheClassPathAndOnlyExactlyOnceIsChecked() {
        assertThat(ExactlyOnceKafkaClients.untested(ExactlyOnceKafkaClients.version()))
                .as("the kafka-clients this module is built with is a tested line")
                .isEmpty();
        runner.withPropertyValues("streamsplit.kafka.sinks.totals.delivery-guarantee=exactly-once")
                .run(context -> assertThat(
                                context.getBean(KafkaSinkFactory.class).create("totals", Types.STRING))
                        .isInstanceOf(RestoredTransactionsKafkaSink.class));
    }

    private void sinks(Consumer<KafkaSinks> test) {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            test.accept(context.getBean(KafkaSinkFactory.class));
        });
    }
}
