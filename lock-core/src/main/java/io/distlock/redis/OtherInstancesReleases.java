package io.distlock.redis;

/**
 * Hands the releases that other lock instances announce to this instance's waiting room. Releases of this instance
 * told its waiters at once, so only other instances' releases are news.
 */
final class OtherInstancesReleases implements ReleaseSubscription.Listener {

    private final String instanceId;
    private final WaitingRoom waitingRoom;

    OtherInstancesReleases(String instanceId, WaitingRoom waitingRoom) {
        this.instanceId = instanceId;
        this.waitingRoom = waitingRoom;
    }

    @Override
    public void released(String message) {
        if (!message.startsWith(instanceId)) {
            waitingRoom.released(message.substring(instanceId.length()));
        }
    }

    @Override
    public void subscribed() {
        waitingRoom.releasedAll();
    }
}
