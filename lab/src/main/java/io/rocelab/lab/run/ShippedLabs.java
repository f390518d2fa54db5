package io.rocelab.lab.run;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/** The scenarios shipped with rocelab: the repository's {@code labs/*.yaml}, resources of the jar. */
public final class ShippedLabs {
    /** Where they are among the resources. */
    public static final String PREFIX = "labs/";

    private ShippedLabs() {
    }

    /** @return their names ({@code pfc-basics}), sorted */
    public static List<String> names() {
        URL dir = ShippedLabs.class.getClassLoader().getResource(PREFIX);
        List<String> out = new ArrayList<>();
        if (dir == null) {
            return out;
        }
        try {
            if (dir.getProtocol().equals("file")) {
                try (Stream<Path> files = Files.list(Path.of(dir.toURI()))) {
                    files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml"))
                        .forEach(n -> out.add(n.substring(0, n.length() - 5)));
                }
            } else if (dir.getProtocol().equals("jar")) {
                String path = dir.getPath();
                String jar = path.substring("file:".length(), path.indexOf("!/"));
                try (JarFile j = new JarFile(java.net.URLDecoder.decode(jar, StandardCharsets.UTF_8))) {
                    Enumeration<JarEntry> e = j.entries();
                    while (e.hasMoreElements()) {
                        String n = e.nextElement().getName();
                        if (n.startsWith(PREFIX) && n.endsWith(".yaml") && n.indexOf('/', PREFIX.length()) < 0) {
                            out.add(n.substring(PREFIX.length(), n.length() - 5));
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        out.sort(null);
        return out;
    }

    /** @return the text of the scenario called {@code name}, or null if there is none */
    public static String text(String name) {
        if (!name.matches("[a-z0-9][a-z0-9-]*")) {
            return null;
        }
        try (InputStream in = ShippedLabs.class.getClassLoader().getResourceAsStream(PREFIX + name + ".yaml")) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
