package dev.loadlens.truth

import io.micrometer.observation.ObservationRegistry
import org.springframework.beans.factory.ObjectProvider
import org.springframework.boot.context.properties.EnableConfigurationProperties
import org.springframework.boot.web.servlet.FilterRegistrationBean
import org.springframework.cache.annotation.EnableCaching
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.core.Ordered
import org.springframework.http.client.JdkClientHttpRequestFactory
import org.springframework.web.client.RestClient
import org.springframework.web.servlet.config.annotation.InterceptorRegistry
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer
import java.net.http.HttpClient
import java.time.Duration

/** The app's beans: the slowdown filter, the bulkhead, the pricing client, caching and the `truth.*` properties. */
@Configuration(proxyBeanMethods = false)
@EnableCaching
@EnableConfigurationProperties(TruthProperties::class)
class TruthConfig {
    /** On every path under /apps/, inside the HTTP observation filter, so the delay is in its metrics. */
    @Bean
    fun slowdownFilter(props: TruthProperties): FilterRegistrationBean<SlowdownFilter> =
        FilterRegistrationBean(SlowdownFilter(props.fault.slowdown)).apply {
            addUrlPatterns("/apps/*")
            order = Ordered.HIGHEST_PRECEDENCE + FILTER_ORDER_AFTER_OBSERVATION
            isEnabled = props.fault.slowdown != 1.0
        }

    /** The bulkhead on every path under /apps/ when truth.bulkhead > 0. */
    @Bean
    fun bulkhead(props: TruthProperties): WebMvcConfigurer = object : WebMvcConfigurer {
        override fun addInterceptors(registry: InterceptorRegistry) {
            if (props.bulkhead > 0) registry.addInterceptor(Bulkhead(props.bulkhead)).addPathPatterns("/apps/**")
        }
    }

    /**
     * The external pricing service, 2 s to connect and 2 s to answer. Built by hand: Boot 4 moved
     * RestClient.Builder to another starter; the registry still gives it http_client_requests metrics.
     */
    @Bean
    fun pricing(props: TruthProperties, observations: ObjectProvider<ObservationRegistry>): RestClient {
        val http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build()
        val factory = JdkClientHttpRequestFactory(http).apply { setReadTimeout(TIMEOUT) }
        return RestClient.builder()
            .baseUrl(props.externalUrl)
            .requestFactory(factory)
            .observationRegistry(observations.getIfAvailable { ObservationRegistry.NOOP })
            .build()
    }

    private companion object {
        val TIMEOUT: Duration = Duration.ofSeconds(2)

        // Boot's ServerHttpObservationFilter runs at HIGHEST_PRECEDENCE + 1.
        const val FILTER_ORDER_AFTER_OBSERVATION = 10
    }
}
