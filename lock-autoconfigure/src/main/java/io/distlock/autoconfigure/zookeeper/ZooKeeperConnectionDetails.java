package io.distlock.autoconfigure.zookeeper;

import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;

/**
 * Where distlock's own ZooKeeper client connects, as Spring Boot's {@link ConnectionDetails}: a bean of this type, such
 * as a test's for a ZooKeeper it starts, takes precedence over {@code distlock.zookeeper.connect-string} and over the
 * application's {@code CuratorFramework} bean, and makes the ZooKeeper backend present for the backend choice. Without
 * one, distlock defines it from {@code distlock.zookeeper.connect-string} when that is set. The client it connects
 * takes the session timeout, authorization and TLS of the {@code distlock.zookeeper.*} properties.
 */
public interface ZooKeeperConnectionDetails extends ConnectionDetails {

    /**
     * The ensemble to connect to.
     *
     * @return {@code host:port[,host:port...]}, optionally followed by a chroot path
     */
    String connectString();
}
