package io.distlock.autoconfigure.zookeeper;

/**
 * The connection that {@code distlock.zookeeper.connect-string} names, when the application has no {@link
 * ZooKeeperConnectionDetails} bean of its own.
 */
final class PropertiesZooKeeperConnectionDetails implements ZooKeeperConnectionDetails {

    private final String connectString;

    PropertiesZooKeeperConnectionDetails(String connectString) {
        this.connectString = connectString;
    }

    @Override
    public String connectString() {
        return connectString;
    }
}
