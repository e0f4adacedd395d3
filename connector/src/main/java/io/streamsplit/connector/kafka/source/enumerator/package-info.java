/**
 * Internal: the split enumerator (JobManager side): partition discovery, offset resolution, assignment and
 * its checkpointed state.
 */
package io.streamsplit.connector.kafka.source.enumerator;
