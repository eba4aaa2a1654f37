package org.autodisk.cli;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.concurrent.CompletionException;

/** Turns what went wrong into one line a user can act on. */
final class CliErrors {

    private CliErrors() {
    }

    /**
     * Describes an error for the {@code error: ...} line.
     *
     * @param e what was thrown
     * @return the message, never just a bare path or a class name
     */
    static String describe(Throwable e) {
        if (e instanceof CompletionException && e.getCause() != null) {
            return describe(e.getCause());
        }
        if (e instanceof FileSystemException fs) {
            return fileProblem(fs);
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /**
     * Describes a file that could not be read, naming what it was for.
     *
     * @param what the option or argument the file was given as, e.g. {@code --value-file}
     * @param file the file
     * @param e    the failure
     * @return an exception carrying the message
     */
    static IllegalArgumentException unreadable(String what, Path file, IOException e) {
        String why = e instanceof FileSystemException fs ? reason(fs) : e.getMessage();
        return new IllegalArgumentException("cannot read " + what + " " + file + ": " + why, e);
    }

    private static String fileProblem(FileSystemException e) {
        return e.getFile() + ": " + reason(e);
    }

    private static String reason(FileSystemException e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        } else if (e instanceof AccessDeniedException) {
            return "permission denied";
        } else if (e instanceof NotDirectoryException) {
            return "not a directory";
        }
        return e.getReason() == null ? e.getClass().getSimpleName() : e.getReason();
    }
}
