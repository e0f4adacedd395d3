/**
 * What StreamSplit knows about the Kafka it runs against, apart from how it is configured: the problems a
 * broker reports (a missing topic, a refused ACL, an unreachable cluster) in the user's words, and the
 * cluster's identity that tells one Kafka from another.
 */
@NullMarked
package io.streamsplit.boot.kafka;

import org.jspecify.annotations.NullMarked;
