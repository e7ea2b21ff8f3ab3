/**
 * robots.txt rules (the robots-parser package), typed here once: its own
 * typings declare the module ambiently, which Deno reads as "not callable".
 */
import robotsParserModule from "robots-parser";

/** The parsed rules of one robots.txt. */
export interface RobotsRules {
  isDisallowed(url: string, userAgent?: string): boolean | undefined;
  getCrawlDelay(userAgent?: string): number | undefined;
}

/** Parses `text`, the robots.txt found at `url`. */
export const parseRobots = robotsParserModule as unknown as (
  url: string,
  text: string,
) => RobotsRules;
