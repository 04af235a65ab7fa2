package io.distlock.redis.internal.pubsub;

/** Receives the releases announced on one channel of a {@link ReleaseConnection}. */
public interface ReleaseListener {

    /** A lock was released; the message is the releasing lock instance's id followed by the lock's Redis key. */
    void released(String message);

    /** The subscription was (re)established; announcements may have been missed before. */
    void subscribed();
}
