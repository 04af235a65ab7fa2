package io.distlock.test.redis;

import java.util.Locale;

/** The few facts about the operating system that decide which Redis binary runs and how it is controlled. */
final class Os {

    private Os() {}

    static boolean isWindows() {
        return family().equals("windows");
    }

    /** {@code linux}, {@code mac}, {@code windows}, or the raw {@code os.name} for anything else. */
    static String family() {
        String name = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (name.startsWith("linux")) {
            return "linux";
        }
        if (name.startsWith("mac")) {
            return "mac";
        }
        return name.startsWith("windows") ? "windows" : name;
    }

    /** {@code amd64}, {@code arm64}, {@code x86}, or the raw {@code os.arch}; JVMs disagree on the spelling. */
    static String cpu() {
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        switch (arch) {
            case "x86_64":
                return "amd64";
            case "aarch64":
                return "arm64";
            case "i386":
            case "i686":
                return "x86";
            default:
                return arch;
        }
    }
}
