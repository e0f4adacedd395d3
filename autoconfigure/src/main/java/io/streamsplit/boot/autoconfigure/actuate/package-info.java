/**
 * Actuator support: the job's health indicator, the {@code kafkasplits} endpoint and the Micrometer meters.
 * A leaf: no other StreamSplit package depends on it.
 */
@NullMarked
package io.streamsplit.boot.autoconfigure.actuate;

import org.jspecify.annotations.NullMarked;
