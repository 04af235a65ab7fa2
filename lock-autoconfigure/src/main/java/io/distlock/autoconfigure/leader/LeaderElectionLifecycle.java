package io.distlock.autoconfigure.leader;

import io.distlock.leader.LeaderElection;
import org.springframework.context.SmartLifecycle;

/**
 * Starts the election once the application's other beans have started, and closes it first at shutdown, so a leader
 * hands over before the rest of the application stops. An election runs once: after a stop, the context's restart
 * does not start it again.
 */
final class LeaderElectionLifecycle implements SmartLifecycle {

    private final LeaderElection election;
    private volatile boolean running;

    LeaderElectionLifecycle(LeaderElection election) {
        this.election = election;
    }

    @Override
    public void start() {
        if (!running) {
            election.start();
            running = true;
        }
    }

    @Override
    public void stop() {
        election.close();
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
