// Code written as ES modules (libs/sdk) names a relative import by the file tsc emits (`./generated/index.js`),
// while Jest runs the .ts source beside it: such a request that finds no .js file is resolved as the .ts one.
const RELATIVE_JS = /^\.{1,2}\/.*\.js$/;

module.exports = (request, options) => {
  try {
    return options.defaultResolver(request, options);
  } catch (error) {
    if (!RELATIVE_JS.test(request)) throw error;
    return options.defaultResolver(request.replace(/\.js$/, '.ts'), options);
  }
};
