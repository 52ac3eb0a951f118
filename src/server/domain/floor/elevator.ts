// The automated vertical lift (智能升降柜) behind its tasks (documents/types/elevator-task.ts). No device is
// connected here: the lift is reached through an `ElevatorDriver`, and the one driver there is today is
// manual — the operator at the lift's port tells the system what the lift did (the tray arrived, the work
// is done). A real driver (a PLC or the vendor's API) implements the same three calls and reports the same
// states; the task documents do not change.
export type TrayState = 'queued' | 'called' | 'arrived' | 'done' | 'cancelled';

export interface TrayCall {
  elevatorCode: string;
  trayNo: string;
  taskNo: string;
}

export interface ElevatorDriver {
  readonly name: string;
  /** Asks the lift to bring the tray to its port; the state the call leaves the task in. */
  callTray(call: TrayCall): Promise<TrayState>;
  /** The operator (or the device) reports the tray at the port: the state that follows. */
  arrived(call: TrayCall): Promise<TrayState>;
  /** The lines were picked or put and the tray is sent back: the state that follows. */
  release(call: TrayCall): Promise<TrayState>;
}

/** The manual driver: every step is what the operator says it is. */
export const manualDriver: ElevatorDriver = {
  name: 'manual',
  callTray: async () => 'called',
  arrived: async () => 'arrived',
  release: async () => 'done',
};

let driver: ElevatorDriver = manualDriver;

/** The driver the tasks use (a device integration sets its own at start-up; tests set a fake). */
export function elevatorDriver(): ElevatorDriver {
  return driver;
}

export function setElevatorDriver(d: ElevatorDriver): void {
  driver = d;
}
