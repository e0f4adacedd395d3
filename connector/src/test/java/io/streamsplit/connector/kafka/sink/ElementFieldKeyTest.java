package io.streamsplit.connector.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ElementFieldKeyTest {

    public record Total(String customer, long cents) {}

    public static class Pojo {
        public String region = "eu";
        private final int shard = 7;

        public int getShard() {
            return shard;
        }
    }

    @Test
    void readsARecordComponentAPublicFieldOrAGetterAsUtf8() {
        assertThat(ElementFieldKey.of(Total.class, "customer").serialize(new Total("Zoë", 5)))
                .isEqualTo("Zoë".getBytes(StandardCharsets.UTF_8));
        assertThat(ElementFieldKey.of(Total.class, "cents").serialize(new Total("c", 5)))
                .isEqualTo("5".getBytes(StandardCharsets.UTF_8));
        assertThat(ElementFieldKey.of(Pojo.class, "region").serialize(new Pojo()))
                .isEqualTo("eu".getBytes(StandardCharsets.UTF_8));
        assertThat(ElementFieldKey.of(Pojo.class, "shard").serialize(new Pojo()))
                .isEqualTo("7".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void readsTheEntryOfAMapElementAsASqlRowIsWritten() {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("customer", "ann");
        row.put("total", 12L);
        @SuppressWarnings({"unchecked", "rawtypes"})
        ElementFieldKey<Map<String, Object>> total = (ElementFieldKey) ElementFieldKey.of(Map.class, "total");
        assertThat(total.serialize(row)).isEqualTo("12".getBytes(StandardCharsets.UTF_8));
        row.put("total", null);
        assertThat(total.serialize(row)).isNull();
    }

    @Test
    void aNullFieldGivesARecordWithoutKey() {
        assertThat(ElementFieldKey.of(Total.class, "customer").serialize(new Total(null, 1)))
                .isNull();
    }

    @Test
    void aFieldTheTypeDoesNotHaveIsRefusedWhenTheKeyIsMade() {
        assertThatThrownBy(() -> ElementFieldKey.of(Total.class, "client"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage(Total.class.getName() + " has no record component, public field or getter named 'client';"
                        + " its fields are [cents, customer]");
    }
}
