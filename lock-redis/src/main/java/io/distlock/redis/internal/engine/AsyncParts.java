package io.distlock.redis.internal.engine;

import io.distlock.redis.internal.waiting.WaitingRoom;

/** What the asynchronous acquisitions of one lock share: its kit, commands, waiting room, releaser and threads. */
final class AsyncParts {

    private final LockKit kit;
    private final LockCommands commands;
    private final WaitingRoom waitingRoom;
    private final Releaser releaser;
    private final AsyncThreads threads;

    AsyncParts(LockKit kit, LockCommands commands, WaitingRoom waitingRoom, Releaser releaser, AsyncThreads threads) {
        this.kit = kit;
        this.commands = commands;
        this.waitingRoom = waitingRoom;
        this.releaser = releaser;
        this.threads = threads;
    }

    void startBackgroundWork() {
        kit.startBackgroundWork();
    }

    /** See {@link LockKit#waitsFor}. */
    void waitsFor(String lockKey) {
        kit.waitsFor(lockKey, false);
    }

    Holds holds() {
        return kit.holds();
    }

    LockCommands commands() {
        return commands;
    }

    WaitingRoom waitingRoom() {
        return waitingRoom;
    }

    Releaser releaser() {
        return releaser;
    }

    AsyncThreads threads() {
        return threads;
    }

    ObserverCalls observer() {
        return kit.observer();
    }

    IllegalStateException closed(String key) {
        return kit.closed(key);
    }
}
