package org.autodisk.it.containers;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Marks a suite that needs a Docker daemon. Without one the suite is skipped with a message saying so, except
 * when the environment variable {@code CI} is {@code true}: then it fails, because CI must run it.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag("docker")
@ExtendWith(DockerCondition.class)
public @interface RequiresDocker {
}
