/** The sample application: per-customer order totals from Kafka to Kafka, with demo orders in dev mode. */
@NullMarked
package io.streamsplit.sample;

import org.jspecify.annotations.NullMarked;
