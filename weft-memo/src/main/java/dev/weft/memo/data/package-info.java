/**
 * Memo's data, in the run store's database: users, tasks and reminders, lists, the calendar. Every
 * read and write is scoped by a user; no method reaches another user's rows.
 */
@NullMarked
package dev.weft.memo.data;

import org.jspecify.annotations.NullMarked;
