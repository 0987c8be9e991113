// The e2e order: files that start an indexer of their own first. Such an indexer indexes the lane's
// chain from the deployment on, so it costs what the lane's earlier files wrote (a file that took 58 s
// at the start of a run took 203 s near its end). The rest keep vitest's order (slowest first when a
// previous run's durations are cached, else largest first), which balances the lanes.
import fs from "node:fs";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const OWN_INDEXER = /indexer:\s*true|launchIndexer\(|startIndexer\(/;

export default class E2eSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const own = new Set(sorted.filter((f) => f.project.name.startsWith("e2e") && OWN_INDEXER.test(fs.readFileSync(f.moduleId, "utf8"))));
    return [...sorted.filter((f) => own.has(f)), ...sorted.filter((f) => !own.has(f))];
  }
}
