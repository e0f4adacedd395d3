/**
 * OpenLineage run events of the job, sent from the application with OpenLineage's Java client: the datasets come
 * from the job's lineage as Flink's lineage interface reports it.
 */
@NullMarked
package io.streamsplit.boot.lineage;

import org.jspecify.annotations.NullMarked;
