package io.streamsplit.sample;

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.util.matcher.AndRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * Who may operate the pipeline: reading Actuator (health, split state, metrics, the job) is open to
 * monitoring; the write operations of {@code /actuator/streamsplit} (stop, start, rescale, pause,
 * resume, throttle) need a user with role OPERATOR, here over HTTP Basic
 * ({@code spring.security.user.*} in application.yml). Only with a web server: run by Flink
 * (application mode) the application has none.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
class OperationsSecurity {

    @Bean
    SecurityFilterChain actuatorSecurity(HttpSecurity http) throws Exception {
        RequestMatcher operate = new AndRequestMatcher(
                EndpointRequest.to("streamsplit"), request -> HttpMethod.POST.matches(request.getMethod()));
        return http.securityMatcher(EndpointRequest.toAnyEndpoint())
                .authorizeHttpRequests(requests -> requests.requestMatchers(operate)
                        .hasRole("OPERATOR")
                        .anyRequest()
                        .permitAll())
                .httpBasic(Customizer.withDefaults())
                // a machine-to-machine API with Basic credentials, no browser session to forge
                .csrf(csrf -> csrf.ignoringRequestMatchers(EndpointRequest.toAnyEndpoint()))
                .build();
    }
}
