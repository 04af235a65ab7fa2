package io.distlock.bench.firstcall;

import java.util.Arrays;
import java.util.Locale;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The measured application, run in a fresh JVM: Spring Boot's auto-configuration with distlock's Redis starter and
 * one annotated service. Once the application is ready, it makes {@link #CALLS} calls and prints one line, {@code
 * FIRST <nanos> STEADY <nanos>}: what the first call took, and the median of calls 100 to {@link #CALLS}. The calls
 * are those of the service on one SKU, or with {@code --bench.call=get} a plain {@code GET} of that SKU through
 * Spring Data Redis's {@link StringRedisTemplate}, the reference for what any first Redis command costs.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class FirstCallApplication {

    /** Calls per application. */
    static final int CALLS = 400;

    /** The first call counted as the steady state, the hundredth. */
    static final int STEADY_FROM = 99;

    private static final String SKU = "sku-1";

    /** What the line the application prints starts with. */
    static final String RESULT = "FIRST ";

    @Bean
    Stock stock() {
        return new Stock();
    }

    /**
     * Starts the application, measures, prints the result and stops.
     *
     * @param args Spring Boot's command-line properties: where Redis is, and whether distlock prepares at start-up
     */
    public static void main(String[] args) {
        long[] took = new long[CALLS];
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(FirstCallApplication.class)
                .web(WebApplicationType.NONE)
                .logStartupInfo(false)
                .run(args)) {
            StringRedisTemplate template = context.getBean(StringRedisTemplate.class);
            Stock stock = context.getBean(Stock.class);
            Runnable call = "get".equals(context.getEnvironment().getProperty("bench.call"))
                    ? () -> template.opsForValue().get(SKU)
                    : () -> stock.deduct(SKU);
            for (int i = 0; i < CALLS; i++) {
                long start = System.nanoTime();
                call.run();
                took[i] = System.nanoTime() - start;
            }
        }
        long[] steady = Arrays.copyOfRange(took, STEADY_FROM, CALLS);
        Arrays.sort(steady);
        System.out.println(String.format(Locale.ROOT, "%s%d STEADY %d", RESULT, took[0], steady[steady.length / 2]));
    }
}
