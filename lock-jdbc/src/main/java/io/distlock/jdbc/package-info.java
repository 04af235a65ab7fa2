/**
 * A {@link io.distlock.store.LeaseStore} on one table of a relational database (PostgreSQL, MySQL/MariaDB or H2), for
 * {@code StoreLock}: {@link io.distlock.jdbc.JdbcLeaseStore}. The table's schema for each database ships in this jar
 * as {@code io/distlock/jdbc/schema-<database>.sql}.
 */
@NullMarked
package io.distlock.jdbc;

import org.jspecify.annotations.NullMarked;
