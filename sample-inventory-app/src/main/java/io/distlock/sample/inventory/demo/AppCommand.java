package io.distlock.sample.inventory.demo;

import io.distlock.sample.inventory.InventoryApplication;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command line that starts one more instance of the inventory application in its own JVM. */
public record AppCommand(List<String> command) {

    /**
     * Small heaps and the quick-starting compiler: several instances share a small machine with the load generator,
     * and a demo is over before the optimizing compiler would pay off.
     */
    private static final List<String> JVM_OPTIONS = List.of("-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");

    public AppCommand {
        command = List.copyOf(command);
    }

    /** Runs the executable jar built by this module. */
    public static AppCommand ofJar(Path jar) {
        List<String> command = javaWithOptions();
        command.add("-jar");
        command.add(jar.toAbsolutePath().toString());
        return new AppCommand(command);
    }

    /** Runs the same code as this JVM: its jar when started with {@code java -jar}, else its class path. */
    public static AppCommand ofThisJvm() {
        String classPath = System.getProperty("java.class.path");
        if (!classPath.contains(File.pathSeparator) && classPath.endsWith(".jar")) {
            return ofJar(Path.of(classPath));
        }
        List<String> command = javaWithOptions();
        command.add("-cp");
        command.add(classPath);
        command.add(InventoryApplication.class.getName());
        return new AppCommand(command);
    }

    /** The command with application arguments appended. */
    public List<String> with(String... arguments) {
        List<String> full = new ArrayList<>(command);
        full.addAll(List.of(arguments));
        return full;
    }

    private static List<String> javaWithOptions() {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM_OPTIONS);
        return command;
    }
}
