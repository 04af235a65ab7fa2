package io.distlock.zookeeper;

import java.time.Duration;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warns, once the store's client first connects, when everyone may use the base path: a holder's node holds its owner
 * token and lease, and a client that may change or delete it can end another's hold or take its key. The base path is
 * created first if it is missing, with the ACL the client gives new nodes, so that the check reads what the store's
 * nodes get; it would be created by the first acquisition anyway.
 */
final class BasePathAccess {

    private static final Logger log = LoggerFactory.getLogger(BasePathAccess.class);

    private static final String WORLD = "world";
    private static final String ANYONE = "anyone";

    private final CuratorFramework client;
    private final String basePath;
    private final Calls calls;
    private final Duration connectWait;

    BasePathAccess(CuratorFramework client, String basePath, Calls calls, Duration connectWait) {
        this.client = client;
        this.basePath = basePath;
        this.calls = calls;
        this.connectWait = connectWait;
    }

    /** Checks the base path's ACL, on the calling thread; logs what it found and never throws. */
    void check() {
        try {
            if (!client.blockUntilConnected((int) connectWait.toMillis(), TimeUnit.MILLISECONDS)) {
                log.debug("Did not check the ACL of the ZooKeeper base path {}: no connection", basePath);
                return;
            }
            calls.await(
                    basePath,
                    "creating the base path",
                    cb -> client.create()
                            .creatingParentsIfNeeded()
                            .withMode(CreateMode.PERSISTENT)
                            .inBackground(cb)
                            .forPath(basePath));
            CuratorEvent answer = calls.await(
                    basePath,
                    "reading the base path's ACL",
                    cb -> client.getACL().inBackground(cb).forPath(basePath));
            if (Calls.code(answer) != Code.OK) {
                // NOAUTH: this client may not even read the ACL, so it is not open to everyone.
                log.debug(
                        "Checked the ACL of the ZooKeeper base path {}: ZooKeeper answered {}",
                        basePath,
                        Calls.code(answer));
                return;
            }
            String open = worldPermissions(answer.getACLList());
            if (open.isEmpty()) {
                log.debug("Checked the ACL of the ZooKeeper base path {}: not open to world:anyone", basePath);
            } else {
                log.warn(
                        "The ZooKeeper base path {} is open to world:anyone ({}): any client that reaches ZooKeeper can"
                                + " read the locks' nodes, and change or delete them, ending another's hold. Give the"
                                + " store authorization (distlock.zookeeper.authorization.credentials, or"
                                + " ZooKeeperLeaseStore.Builder.authorization), whose nodes are then their creator's"
                                + " alone, and set the ACL of {} for that identity only (setAcl in zkCli.sh)",
                        basePath,
                        open,
                        basePath);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.debug("Could not check the ACL of the ZooKeeper base path {}", basePath, e);
        }
    }

    /** The permissions that the ACL gives to everyone, such as {@code read, write, delete}; empty for none. */
    static String worldPermissions(List<ACL> acl) {
        int permissions = 0;
        for (ACL entry : acl) {
            if (WORLD.equals(entry.getId().getScheme())
                    && ANYONE.equals(entry.getId().getId())) {
                permissions |= entry.getPerms();
            }
        }
        StringJoiner names = new StringJoiner(", ");
        name(names, permissions, ZooDefs.Perms.READ, "read");
        name(names, permissions, ZooDefs.Perms.WRITE, "write");
        name(names, permissions, ZooDefs.Perms.CREATE, "create");
        name(names, permissions, ZooDefs.Perms.DELETE, "delete");
        name(names, permissions, ZooDefs.Perms.ADMIN, "admin");
        return names.toString();
    }

    private static void name(StringJoiner names, int permissions, int permission, String name) {
        if ((permissions & permission) != 0) {
            names.add(name);
        }
    }
}
