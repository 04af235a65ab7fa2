/** The {@link io.distlock.Lock} bean on a table of the application's database (lock-jdbc). */
@NullMarked
package io.distlock.autoconfigure.jdbc;

import org.jspecify.annotations.NullMarked;
