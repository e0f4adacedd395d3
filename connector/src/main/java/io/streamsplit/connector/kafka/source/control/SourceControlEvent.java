package io.streamsplit.connector.kafka.source.control;

import org.apache.flink.annotation.Internal;
import org.apache.flink.api.connector.source.SourceEvent;

/** From the enumerator to every reader of its source: the control in force now. */
@Internal
public record SourceControlEvent(SourceControl control) implements SourceEvent {}
