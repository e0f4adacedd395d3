/**
 * How a step ({@code pipeline.step(name)}) handles a record its code fails on: the rules ({@code StepErrorRules}),
 * the guard that retries and applies the policy ({@code StepGuard}), and the functions that wrap the user's map,
 * flatMap, filter and keyed process function with it. Spring-free: these run on Flink's TaskManagers.
 */
@NullMarked
package io.streamsplit.pipeline.step;

import org.jspecify.annotations.NullMarked;
