package io.distlock.test.redis;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/** Finds an executable on the {@code PATH} the way a shell would, without depending on {@code which}. */
final class PathLookup {

    private PathLookup() {}

    static Optional<Path> find(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        List<String> fileNames = Os.isWindows() ? List.of(name + ".exe", name) : List.of(name);
        for (String directory : path.split(Pattern.quote(File.pathSeparator))) {
            for (String fileName : fileNames) {
                Optional<Path> candidate = executable(directory, fileName);
                if (candidate.isPresent()) {
                    return candidate;
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<Path> executable(String directory, String fileName) {
        if (directory.isBlank()) {
            return Optional.empty();
        }
        try {
            Path candidate = Path.of(directory, fileName);
            return Files.isRegularFile(candidate) && Files.isExecutable(candidate)
                    ? Optional.of(candidate)
                    : Optional.empty();
        } catch (InvalidPathException e) {
            // A malformed PATH entry must not stop the search through the others.
            return Optional.empty();
        }
    }
}
