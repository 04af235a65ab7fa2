package io.distlock.redis.internal.fair;

import io.distlock.redis.internal.pubsub.ReleaseListener;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers the handovers of the {@linkplain io.distlock.redis.FairLock fair lock} that {@link FairScripts} announce on
 * the release channel ({@code !<ticket> <fencing token> <server time ms> <provisional lease ms>}) to the waiting thread
 * of this instance that queued the ticket. A waiter that misses its announcement (the subscription was down) still
 * learns of the handover at its next heartbeat.
 */
public final class FairHandovers {

    private static final Logger log = LoggerFactory.getLogger(FairHandovers.class);

    /** A notice that announcements may have been missed: the waiter should look at once. */
    public static final Notice LOOK_AGAIN = new Notice(0, 0, 0);

    private final Map<String, CompletableFuture<Notice>> waiting = new ConcurrentHashMap<>();

    /** Whether a release announcement is a fair handover. */
    static boolean isHandover(String message) {
        return message.startsWith("!");
    }

    /** Starts listening for a handover to {@code ticket}; call before the ticket can be queued. */
    public CompletableFuture<Notice> expect(String ticket) {
        CompletableFuture<Notice> notice = new CompletableFuture<>();
        waiting.put(ticket, notice);
        return notice;
    }

    public void forget(String ticket) {
        waiting.remove(ticket);
    }

    void announced(String message) {
        String[] parts = message.substring(1).split(" ");
        if (parts.length != 4) {
            log.debug("Ignored a fair handover announcement of an unknown form: {}", message);
            return;
        }
        deliver(parts[0], new Notice(Long.parseLong(parts[1]), Long.parseLong(parts[2]), Long.parseLong(parts[3])));
    }

    /** Tells the waiter of {@code ticket}, if it is one of this instance's, that the key was handed to it. */
    void deliver(String ticket, Notice handover) {
        CompletableFuture<Notice> notice = waiting.get(ticket);
        if (notice != null) {
            notice.complete(handover);
        }
    }

    /** Wakes every waiter to look again: announcements may have been missed, or the lock closed. */
    public void wakeAll() {
        waiting.values().forEach(notice -> notice.complete(LOOK_AGAIN));
    }

    /** A listener that gives handovers to this registry, and every other announcement to {@code others}. */
    public ReleaseListener routing(ReleaseListener others) {
        return new ReleaseListener() {
            @Override
            public void released(String message) {
                if (isHandover(message)) {
                    announced(message);
                } else {
                    others.released(message);
                }
            }

            @Override
            public void subscribed() {
                others.subscribed();
                wakeAll();
            }
        };
    }

    /**
     * A handover.
     *
     * @param fencingToken the lock's fencing token
     * @param serverMillis Redis's time at the handover, in ms
     * @param provisionalMillis the lease the handover set, before the waiter extends it
     */
    public record Notice(long fencingToken, long serverMillis, long provisionalMillis) {}
}
