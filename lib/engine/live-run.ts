import type { VictimCandidate } from "./preemption";
import type { ActiveRun, ClusterNodeState, NodeHealth } from "./types";

// The working forms a pass makes of its inputs (internal to the engine): runs as the pass holds
// them, and the nodes as standing runs remember them between passes.

/** A run holding GPUs during the pass: an input run or a start of this pass. */
export type LiveRun = VictimCandidate & {
  /** Leaf budget charged for the run. */
  budgetId: string;
  /** The slot of `budgetId` in `ClusterState.budgetSlots`. */
  budgetSlot: number;
  protectedUntilSec: number;
  isGone: boolean;
  isProtectedNow: boolean;
  run: ActiveRun | null;
};

/** The nodes of a pass as given (each object and its fields) and what a pass made of them. */
export type NodesSeen = {
  /** The array given, when it and every node in it were frozen: no one can have changed them. */
  frozen: readonly ClusterNodeState[] | null;
  nodes: readonly ClusterNodeState[];
  fields: readonly { index: number; gpus: number; health: NodeHealth }[];
  isUsable: Uint8Array;
  healthAt: NodeHealth[];
  /** Positions of down nodes, ascending. */
  downAt: number[];
  /** Positions of draining nodes, ascending. */
  drainingAt: number[];
};
