package io.streamsplit.benchmarks.isolated;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts a class of this module in a JVM of its own, with this JVM's {@code java} and the class path
 * this module runs with. Under {@code exec:java} the module's classes are on a child class loader,
 * not on {@code java.class.path}, so the path is read from the loader's URLs where there are any.
 */
public final class JvmLauncher {

    private JvmLauncher() {}

    /** The class path this module's classes were loaded from. */
    public static String classPath() {
        List<String> entries = new ArrayList<>();
        for (ClassLoader loader = JvmLauncher.class.getClassLoader(); loader != null; loader = loader.getParent()) {
            if (loader instanceof URLClassLoader urls) {
                for (URL url : urls.getURLs()) {
                    try {
                        entries.add(Path.of(url.toURI()).toString());
                    } catch (URISyntaxException | IllegalArgumentException e) {
                        // not a file: the JVM could not load from it either
                    }
                }
            }
        }
        return entries.isEmpty() ? System.getProperty("java.class.path") : String.join(File.pathSeparator, entries);
    }

    /** {@code java <jvmOptions> -cp <this class path> <mainClass> <args>}, output to {@code log}. */
    public static Process start(List<String> jvmOptions, Class<?> mainClass, List<String> args, Path log)
            throws IOException {
        // exec:java points java.io.tmpdir at target/tmp, which a fresh checkout does not have yet
        Files.createDirectories(Path.of(System.getProperty("java.io.tmpdir")));
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-Djava.io.tmpdir=" + System.getProperty("java.io.tmpdir"));
        command.add("-cp");
        command.add(classPath());
        command.add(mainClass.getName());
        command.addAll(args);
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }
}
