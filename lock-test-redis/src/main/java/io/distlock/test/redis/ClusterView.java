package io.distlock.test.redis;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** One node's view of a Redis Cluster, parsed from its {@code CLUSTER NODES} reply. */
record ClusterView(List<Entry> entries) {

    /**
     * One line of {@code CLUSTER NODES}.
     *
     * @param id the node id
     * @param port the client port
     * @param flags such as {@code myself}, {@code master}, {@code slave}, {@code fail}, {@code handshake}
     * @param masterId the id of the node this one replicates, or {@code -} for a master
     * @param slots the slot ranges it serves, such as {@code 0-5460} or {@code 42}; migrations in brackets are left out
     */
    record Entry(String id, int port, Set<String> flags, String masterId, List<String> slots) {

        boolean isMaster() {
            return flags.contains("master");
        }

        boolean isFailed() {
            return flags.contains("fail") || flags.contains("fail?");
        }

        boolean isHandshake() {
            return flags.contains("handshake");
        }

        boolean servesSlot(int slot) {
            for (String range : slots) {
                int dash = range.indexOf('-');
                int from = Integer.parseInt(dash < 0 ? range : range.substring(0, dash));
                int to = dash < 0 ? from : Integer.parseInt(range.substring(dash + 1));
                if (slot >= from && slot <= to) {
                    return true;
                }
            }
            return false;
        }
    }

    static ClusterView parse(String reply) {
        List<Entry> entries = new ArrayList<>();
        for (String line : reply.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            String[] fields = line.trim().split(" ");
            // ip:port@busport, with ",hostname" after it on Redis 7
            String address = fields[1];
            int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1, address.indexOf('@')));
            Set<String> flags = new TreeSet<>(List.of(fields[2].split(",")));
            List<String> slots = new ArrayList<>();
            for (int i = 8; i < fields.length; i++) {
                if (!fields[i].startsWith("[")) {
                    slots.add(fields[i]);
                }
            }
            entries.add(new Entry(fields[0], port, flags, fields[3], List.copyOf(slots)));
        }
        return new ClusterView(List.copyOf(entries));
    }

    Entry myself() {
        return entries.stream()
                .filter(entry -> entry.flags().contains("myself"))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("CLUSTER NODES has no 'myself' line: " + entries));
    }

    Optional<Entry> byPort(int port) {
        return entries.stream().filter(entry -> entry.port() == port).findFirst();
    }

    /** Whether this node knows {@code count} nodes, none of them still in the handshake. */
    boolean knowsAll(int count) {
        return entries.size() == count && entries.stream().noneMatch(Entry::isHandshake);
    }

    /**
     * Which port serves which slots and which port replicates which master, as this node believes, leaving out nodes
     * it considers failed; equal on two nodes exactly when they agree.
     */
    String topology() {
        TreeSet<String> facts = new TreeSet<>();
        for (Entry entry : entries) {
            if (entry.isFailed()) {
                continue;
            }
            if (entry.isMaster()) {
                facts.add(entry.port() + "=" + String.join(",", entry.slots()));
            } else {
                entries.stream()
                        .filter(master -> master.id().equals(entry.masterId()))
                        .forEach(master -> facts.add(entry.port() + ">" + master.port()));
            }
        }
        return String.join(" ", facts);
    }

    Optional<Entry> masterOfSlot(int slot) {
        return entries.stream()
                .filter(entry -> entry.isMaster() && !entry.isFailed() && entry.servesSlot(slot))
                .findFirst();
    }
}
