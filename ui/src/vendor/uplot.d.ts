// The build copies uPlot's ES module (node_modules/uplot/dist/uPlot.esm.js) to js/vendor/uplot.js; this gives it uPlot's own types.
import uPlot from "uplot";
export default uPlot;
