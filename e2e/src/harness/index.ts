export { joinHunchHq, logIn, type NewUser, register } from './accounts';
export { apiWrite } from './api';
export { saveScreenshot, saveScreenshots, settle, withFailureCapture } from './artifacts';
export { type AxeViolation, checkScreen, seriousViolations } from './axe';
export {
  chromiumPath,
  DESKTOP,
  launchBrowser,
  newSession,
  type PageProblems,
  PHONE,
  type Session,
  SMALL_PHONE,
} from './browser';
export { handleDialogs, type SeenDialog } from './dialogs';
export { fieldMessage, fieldState, tint } from './fields';
export {
  addGameByImport,
  factsOf,
  joinCommunity,
  localInput,
  predictPoints,
  wholeSecond,
  zipOf,
} from './hosting';
export { journey, type Screen, type ScreenOptions } from './journey';
export { artifactsDir, assertWebBuilt, repoRoot, webDist } from './paths';
export { type Rgb, solidPng } from './png';
export { screenshotLog } from './screenshot-log';
export { type RunningServer, type StartServerOptions, startServer } from './server';
export {
  CHECK_WAIT,
  type Dialogs,
  expectCleanSession,
  useHostAndPlayer,
  useJourneySession,
  useServerAndBrowser,
  WAIT,
} from './suite';
