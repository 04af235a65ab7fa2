package io.distlock.test.redis;

/** One running Redis server, however it was started; {@link TestRedis} adds the test-facing API on top. */
interface RedisBackend {

    String host();

    int port();

    String description();

    /** Kills the server abruptly and returns once its port no longer accepts connections. */
    void kill();

    /** Starts a killed server again on the same port with the same options. */
    void startAgain();

    /** Freezes the server so that it accepts connections but never answers. */
    void pause();

    void resume();

    /** Stops the server for good and removes what it left on disk; calling it again does nothing. */
    void stop();
}
