//! JS error objects for the core's typed errors: the message names the JS option or the rule, and
//! `code` carries the core's snake_case name where there is one.

use wasm_bindgen::prelude::*;

use crate::options::OptionError;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = RangeError)]
    type JsRangeError;
    #[wasm_bindgen(constructor, js_class = "RangeError")]
    fn new(message: &str) -> JsRangeError;
    #[wasm_bindgen(js_name = SyntaxError)]
    type JsSyntaxError;
    #[wasm_bindgen(constructor, js_class = "SyntaxError")]
    fn new(message: &str) -> JsSyntaxError;
    #[wasm_bindgen(js_namespace = Reflect)]
    fn set(target: &JsValue, key: &str, value: &str);
}

impl From<OptionError> for JsValue {
    fn from(e: OptionError) -> JsValue {
        JsRangeError::new(e.0).into()
    }
}

/// A `RangeError` with the given message and `code`.
pub fn range_error(message: &str, code: &str) -> JsValue {
    with_code(JsRangeError::new(message).into(), code)
}

/// A `SyntaxError` (a value that does not parse) with the given message and `code`.
pub fn syntax_error(message: &str, code: &str) -> JsValue {
    with_code(JsSyntaxError::new(message).into(), code)
}

fn with_code(err: JsValue, code: &str) -> JsValue {
    set(&err, "code", code);
    err
}
