package io.streamsplit.registry.test.app;

import io.apicurio.common.apps.config.DynamicConfigPropertyList;
import java.util.List;
import javax.enterprise.context.ApplicationScoped;
import javax.enterprise.inject.Produces;

/**
 * The list of the registry's settings that can change at runtime (its admin API's
 * {@code /admin/config/properties}). Apicurio's build makes it with a Quarkus extension whose build-time
 * half is not published on Maven Central; without it every setting keeps the value it starts with, which
 * is all a test needs: the registry's storage, rules and APIs are Apicurio's own.
 */
@ApplicationScoped
public class DynamicConfigIndex {

    @Produces
    @ApplicationScoped
    DynamicConfigPropertyList dynamicProperties() {
        return new DynamicConfigPropertyList(List.of());
    }
}
