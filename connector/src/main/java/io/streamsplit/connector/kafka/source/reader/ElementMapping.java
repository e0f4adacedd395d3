package io.streamsplit.connector.kafka.source.reader;

import io.streamsplit.connector.kafka.source.DeadLetterRecord;
import java.io.Serializable;
import org.apache.flink.annotation.Internal;
import org.apache.flink.types.Either;
import org.jspecify.annotations.Nullable;

/**
 * How a source's emitted elements and dead letters become its output type: the elements
 * themselves for a plain source, or {@link Either} of dead letter (left) and element (right) for a
 * source whose dead letters travel through the job.
 *
 * @param <T> the element type of the user's emitter
 * @param <OUT> the source's output type
 */
@Internal
public interface ElementMapping<T, OUT> extends Serializable {

    OUT element(T element);

    /** The dead letter as output, or {@code null} if this source has no dead-letter output. */
    @Nullable
    OUT deadLetter(DeadLetterRecord deadLetter);

    /** Elements pass through; there is no dead-letter output. */
    static <T> ElementMapping<T, T> elementsOnly() {
        return new ElementMapping<>() {
            private static final long serialVersionUID = 1L;

            @Override
            public T element(T element) {
                return element;
            }

            @Override
            public @Nullable T deadLetter(DeadLetterRecord deadLetter) {
                return null;
            }
        };
    }

    /** Elements as {@code Either.Right}, dead letters as {@code Either.Left}. */
    static <T> ElementMapping<T, Either<DeadLetterRecord, T>> withDeadLetters() {
        return new ElementMapping<>() {
            private static final long serialVersionUID = 1L;

            @Override
            public Either<DeadLetterRecord, T> element(T element) {
                return Either.Right(element);
            }

            @Override
            public Either<DeadLetterRecord, T> deadLetter(DeadLetterRecord deadLetter) {
                return Either.Left(deadLetter);
            }
        };
    }
}
