package io.streamsplit.sample;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Who may operate the pipeline: reading Actuator (GET: health, split state, metrics, the job) is open
 * to monitoring; every write operation of every endpoint (POST and DELETE: stop, start, rescale, pause,
 * resume, throttle on {@code /actuator/streamsplit}, the savepoint of {@code /actuator/kafkasplits}, the
 * replay of {@code /actuator/deadletters}, and any endpoint added later) needs a user with role
 * OPERATOR, here over HTTP Basic ({@code spring.security.user.*} in application.yml). Only with a web
 * server: run by Flink (application mode) the application has none.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
class OperationsSecurity {

    @Bean
    SecurityFilterChain actuatorSecurity(HttpSecurity http) throws Exception {
        return http.securityMatcher(EndpointRequest.toAnyEndpoint())
                .authorizeHttpRequests(requests -> requests.requestMatchers(HttpMethod.GET)
                        .permitAll()
                        .anyRequest()
                        .hasRole("OPERATOR"))
                .httpBasic(Customizer.withDefaults())
                // a machine-to-machine API with Basic credentials, no browser session to forge
                .csrf(csrf -> csrf.ignoringRequestMatchers(EndpointRequest.toAnyEndpoint()))
                .build();
    }
}
