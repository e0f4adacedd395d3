/**
 * Actuator support: the job's health indicator, the {@code kafkasplits} endpoint and the Micrometer meters.
 * Wired by {@code io.streamsplit.boot.autoconfigure.actuate}; no other StreamSplit package depends on it.
 */
@NullMarked
package io.streamsplit.boot.actuate;

import org.jspecify.annotations.NullMarked;
