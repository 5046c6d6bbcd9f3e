/**
 * The version of a user's report data: it changes whenever an import changes what the reports show.
 * Read before the data, a cached response stored under it is never older than it, so a response cached
 * under the current version is up to date.
 */
export abstract class ReportVersions {
  abstract current(userId: number): Promise<number>;
}
