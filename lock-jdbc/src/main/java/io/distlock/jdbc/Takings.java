package io.distlock.jdbc;

import java.sql.SQLException;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * How an acquisition of each kind takes what it waits for, on the rows of the lock table: a key, a read of it, a place
 * in its fair queue and then the key, one of its permits, or a path of a tree. {@link JdbcLeaseStore} checks the
 * arguments and wraps each in a {@link JdbcAcquisition}.
 */
final class Takings {

    private final LockRows rows;
    private final ReadRows reads;
    private final FairRows queues;
    private final FairTickets tickets = new FairTickets();
    private final PermitRows permits;
    private final PathRows paths;
    private final long waitMarkMillis;
    private final long stayMillis;

    /**
     * @param waitMarkMillis how long a waiting writer's mark keeps new readers out after its last refused poll
     * @param stayMillis how long a fair waiter's ticket stays live after its process last kept it alive
     */
    Takings(
            LockRows rows,
            ReadRows reads,
            FairRows queues,
            PermitRows permits,
            PathRows paths,
            long waitMarkMillis,
            long stayMillis) {
        this.rows = rows;
        this.paths = paths;
        this.reads = reads;
        this.queues = queues;
        this.permits = permits;
        this.waitMarkMillis = waitMarkMillis;
        this.stayMillis = stayMillis;
    }

    /** The key itself: a writer, which marks the key while it waits so that new readers stay out. */
    JdbcAcquisition.Taking exclusive(String key, String owner, String holder, long leaseMillis) {
        return new Writing(key, owner) {
            @Override
            public JdbcAcquisition.@Nullable Grant take() throws SQLException {
                Long token = rows.take(key, owner, holder, leaseMillis);
                return token == null ? null : new JdbcAcquisition.Grant(key, token);
            }
        };
    }

    /** A read of the key. */
    JdbcAcquisition.Taking read(String key, String owner, String holder, long leaseMillis) {
        return new JdbcAcquisition.Taking() {
            @Override
            public JdbcAcquisition.@Nullable Grant take() throws SQLException {
                return reads.take(key, owner, holder, leaseMillis);
            }

            @Override
            public boolean giveBack() throws SQLException {
                return reads.releaseAny(key, owner);
            }

            @Override
            public JdbcStoreLease.RowChanges changes() {
                return new JdbcStoreLease.RowChanges() {
                    @Override
                    public boolean extend(String row, String owner, long leaseMillis) throws SQLException {
                        return reads.extend(key, row, owner, leaseMillis);
                    }

                    @Override
                    public boolean release(String row, String owner) throws SQLException {
                        return reads.release(key, row, owner);
                    }
                };
            }
        };
    }

    /**
     * A place in the key's fair queue, then the key once no earlier place is live; a writer, which marks the key while
     * it waits as {@link #exclusive} does.
     */
    JdbcAcquisition.Taking fair(String key, String owner, String holder, long leaseMillis) {
        return new Writing(key, owner) {
            private long ticket;
            private boolean taken;

            @Override
            public void arrive() throws SQLException {
                ticket = queues.join(key, owner, stayMillis);
                tickets.add(key, ticket);
            }

            @Override
            public JdbcAcquisition.@Nullable Grant take() throws SQLException {
                Long token;
                if (ticket == 0) {
                    FairRows.FirstTry first =
                            queues.takeOrJoin(key, tickets.of(key), owner, holder, leaseMillis, stayMillis);
                    token = first.token();
                    if (token == null) {
                        ticket = first.ticket();
                        tickets.add(key, ticket);
                    }
                } else {
                    token = queues.take(key, ticket, tickets.of(key), owner, holder, leaseMillis, stayMillis);
                }
                taken = token != null;
                return taken ? new JdbcAcquisition.Grant(key, token) : null;
            }

            @Override
            public void leave() throws SQLException {
                if (ticket == 0) {
                    return;
                }
                tickets.remove(key, ticket);
                if (!taken) {
                    queues.leave(key, ticket);
                }
            }
        };
    }

    /** One of the key's permits. */
    JdbcAcquisition.Taking permit(String key, int count, String owner, String holder, long leaseMillis) {
        return new JdbcAcquisition.Taking() {
            @Override
            public JdbcAcquisition.@Nullable Grant take() throws SQLException {
                PermitRows.Granted granted = permits.take(key, count, owner, holder, leaseMillis);
                return granted == null ? null : new JdbcAcquisition.Grant(granted.slotRow(), granted.fencingToken());
            }

            @Override
            public boolean giveBack() throws SQLException {
                return permits.releaseAny(key, owner);
            }
        };
    }

    /** A path of a tree, whose grant is its holder row and a slot of each ancestor. */
    JdbcAcquisition.Taking path(String tree, List<String> path, String owner, String holder, long leaseMillis) {
        return new JdbcAcquisition.Taking() {
            private List<String> heldRows = List.of();

            @Override
            public JdbcAcquisition.@Nullable Grant take() throws SQLException {
                PathRows.Granted granted = paths.take(tree, path, owner, holder, leaseMillis);
                if (granted == null) {
                    return null;
                }
                heldRows = granted.heldRows();
                return new JdbcAcquisition.Grant(heldRows.get(0), granted.fencingToken());
            }

            @Override
            public boolean giveBack() throws SQLException {
                return paths.releaseAny(tree, path, owner);
            }

            @Override
            public JdbcStoreLease.RowChanges changes() {
                List<String> held = heldRows;
                return new JdbcStoreLease.RowChanges() {
                    @Override
                    public boolean extend(String row, String owner, long leaseMillis) throws SQLException {
                        return paths.extend(tree, path, held, owner, leaseMillis);
                    }

                    @Override
                    public boolean release(String row, String owner) throws SQLException {
                        return paths.release(tree, held, owner);
                    }
                };
            }
        };
    }

    /**
     * A writer's taking of the key: it gives back the key itself, and marks the key while it waits, so that new readers
     * stay out.
     */
    private abstract class Writing implements JdbcAcquisition.Taking {

        private final String key;
        private final String owner;

        Writing(String key, String owner) {
            this.key = key;
            this.owner = owner;
        }

        @Override
        public boolean giveBack() throws SQLException {
            return rows.release(key, owner);
        }

        @Override
        public void waits() throws SQLException {
            reads.markWriterWaiting(key, waitMarkMillis);
        }

        @Override
        public void stopsWaiting() throws SQLException {
            reads.clearWriterWaiting(key);
        }
    }
}
