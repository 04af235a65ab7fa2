/**
 * Spring Boot Actuator support for distlock: the {@code distlock} endpoint, which lists what this instance holds and
 * waits for and how one key stands, and the {@code distlock} health contributor. Each part switches on only when the
 * application has Actuator, and backs off like Spring Boot's own endpoints and health contributors.
 */
@NullMarked
package io.distlock.autoconfigure.actuate;

import org.jspecify.annotations.NullMarked;
