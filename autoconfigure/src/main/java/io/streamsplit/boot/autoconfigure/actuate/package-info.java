/**
 * The auto-configuration of the Actuator support ({@code io.streamsplit.boot.actuate}), active when Spring
 * Boot's Actuator is on the classpath. A leaf: no other StreamSplit package depends on it.
 */
@NullMarked
package io.streamsplit.boot.autoconfigure.actuate;

import org.jspecify.annotations.NullMarked;
