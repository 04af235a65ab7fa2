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
 * one annotated service. Once the application is ready, it makes {@link #CALLS} calls back to back, then {@link
 * #PAUSED_CALLS} more, each after a pause of {@link #PAUSE_MILLIS} ms, as the requests of a quiet service arrive. It
 * prints one line, {@code FIRST <nanos> STEADY <nanos> PAUSED <nanos>}: what the first call took, the median of calls
 * 100 to {@link #CALLS}, and the median of the calls after a pause. The calls are those of the service on one SKU, or with {@code --bench.call=get} a plain {@code GET} of that SKU through
 * Spring Data Redis's {@link StringRedisTemplate}, the reference for what any first Redis command costs.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class FirstCallApplication {

    /** Calls per application. */
    static final int CALLS = 400;

    /** The first call counted as the steady state, the hundredth. */
    static final int STEADY_FROM = 99;

    /** Calls made after a pause each, once the calls back to back are done. */
    static final int PAUSED_CALLS = 30;

    /**
     * The pause before each of the {@link #PAUSED_CALLS}: long enough for the machine's idle cores and threads to go
     * to sleep, as they have between the end of start-up and the first call; a call after a pause of 50 ms or more
     * costs the same on a 2-core VM, whatever its length.
     */
    static final long PAUSE_MILLIS = 100;

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
     * @throws InterruptedException if interrupted in a pause
     */
    public static void main(String[] args) throws InterruptedException {
        long[] took = new long[CALLS];
        long[] paused = new long[PAUSED_CALLS];
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
            for (int i = 0; i < PAUSED_CALLS; i++) {
                Thread.sleep(PAUSE_MILLIS);
                long start = System.nanoTime();
                call.run();
                paused[i] = System.nanoTime() - start;
            }
        }
        long[] steady = Arrays.copyOfRange(took, STEADY_FROM, CALLS);
        Arrays.sort(steady);
        Arrays.sort(paused);
        System.out.println(String.format(
                Locale.ROOT,
                "%s%d STEADY %d PAUSED %d",
                RESULT,
                took[0],
                steady[steady.length / 2],
                paused[paused.length / 2]));
    }
}
