package io.distlock.autoconfigure.zookeeper;

import io.distlock.autoconfigure.LockBackendCandidate;
import java.util.List;

/**
 * Apache ZooKeeper, for the backend choice: present when lock-zookeeper is on the class path and the application has a
 * {@code CuratorFramework} or {@link ZooKeeperConnectionDetails} bean, or sets {@code distlock.zookeeper.connect-string}.
 */
final class ZooKeeperLockBackendCandidate implements LockBackendCandidate {

    @Override
    public String id() {
        return "zookeeper";
    }

    @Override
    public String module() {
        return "lock-zookeeper";
    }

    // By name, like the connection's type: this class is loaded also when lock-zookeeper and Curator are missing.
    @Override
    public String moduleClass() {
        return "io.distlock.zookeeper.ZooKeeperLeaseStore";
    }

    @Override
    public String starter() {
        return "io.distlock:lock-zookeeper-spring-boot-starter";
    }

    @Override
    public String connectionType() {
        return "org.apache.curator.framework.CuratorFramework";
    }

    // By name: a ZooKeeperConnectionDetails bean, from a test or the application, connects distlock's own client.
    @Override
    public List<String> otherConnectionTypes() {
        return List.of("io.distlock.autoconfigure.zookeeper.ZooKeeperConnectionDetails");
    }

    @Override
    public String connectionProperty() {
        return "distlock.zookeeper.connect-string";
    }

    @Override
    public String configuration() {
        return "io.distlock.autoconfigure.zookeeper.ZooKeeperLockConfiguration";
    }
}
