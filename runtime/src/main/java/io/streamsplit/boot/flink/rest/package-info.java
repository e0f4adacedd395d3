/** Polling Flink's REST API from the application: one daemon thread per poll, stopped without cutting a request. */
@NullMarked
package io.streamsplit.boot.flink.rest;

import org.jspecify.annotations.NullMarked;
