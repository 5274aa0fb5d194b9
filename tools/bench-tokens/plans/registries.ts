/** The generated registries the cases run on, as a user ships them (`zcp.gen/index.ts`). */
import weather from "../../../fixtures/weather/src/zcp.gen/index.ts";
import workbench from "../../../fixtures/workbench/src/zcp.gen/index.ts";

export { weather, workbench };
