package io.distlock.autoconfigure.startup;

import java.time.Duration;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * What the lock readies while the application starts, under {@code distlock.startup.*}. Invalid values fail start-up,
 * naming the property.
 */
@ConfigurationProperties("distlock.startup")
public class LockStartupProperties implements InitializingBean {

    /** Most warm-up calls allowed; more would only delay start-up. */
    static final int MAX_WARM_UP_CALLS = 10_000;

    /**
     * Whether the lock connects, loads its scripts, subscribes and makes its warm-up calls before the application
     * reports ready, instead of in its first caller's wait.
     */
    private boolean prepare = true;

    /**
     * How many calls through a locked method of distlock's own, on the key distlock-warm-up, run after connecting, so
     * that the application's first call does not run the annotation's code for the first time; 0 makes none.
     */
    private int warmUpCalls = 300;

    /** How long start-up waits for the preparation; past it, the application starts and its first call connects. */
    private Duration timeout = Duration.ofSeconds(10);

    public boolean isPrepare() {
        return prepare;
    }

    public void setPrepare(boolean prepare) {
        this.prepare = prepare;
    }

    public int getWarmUpCalls() {
        return warmUpCalls;
    }

    public void setWarmUpCalls(int warmUpCalls) {
        this.warmUpCalls = warmUpCalls;
    }

    public Duration getTimeout() {
        return timeout;
    }

    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }

    @Override
    public void afterPropertiesSet() {
        if (warmUpCalls < 0 || warmUpCalls > MAX_WARM_UP_CALLS) {
            throw new InvalidConfigurationPropertyValueException(
                    "distlock.startup.warm-up-calls",
                    warmUpCalls,
                    "must be from 0 (none) to " + MAX_WARM_UP_CALLS + "; the default is 300");
        }
        if (timeout == null || timeout.toMillis() < 1) {
            throw new InvalidConfigurationPropertyValueException(
                    "distlock.startup.timeout",
                    timeout,
                    "must be at least 1 ms; to prepare nothing, set distlock.startup.prepare=false");
        }
    }
}
