package io.streamsplit.boot.test;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;

/** Turns a {@link StreamSplitTest} into the context customizer that starts its broker and sets its defaults. */
public final class StreamSplitTestContextCustomizerFactory implements ContextCustomizerFactory {

    @Override
    public @Nullable ContextCustomizer createContextCustomizer(
            Class<?> testClass, List<ContextConfigurationAttributes> configAttributes) {
        var annotation = MergedAnnotations.search(MergedAnnotations.SearchStrategy.TYPE_HIERARCHY)
                .from(testClass)
                .get(StreamSplitTest.class);
        if (!annotation.isPresent()) {
            return null;
        }
        return new StreamSplitTestContextCustomizer(TestSettings.of(annotation.synthesize()));
    }
}
