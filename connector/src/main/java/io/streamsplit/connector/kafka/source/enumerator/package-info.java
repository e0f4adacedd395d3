/**
 * Internal: the split enumerator (JobManager side): partition discovery, offset resolution, assignment and
 * its checkpointed state.
 */
@NullMarked
package io.streamsplit.connector.kafka.source.enumerator;

import org.jspecify.annotations.NullMarked;
