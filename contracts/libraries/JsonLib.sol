// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @notice Escapes a string for use inside a JSON string literal (RFC 8259): quote, backslash and
/// control characters. Bytes >= 0x80 (UTF-8) pass through unchanged.
library JsonLib {
    bytes16 private constant HEX_DIGITS = "0123456789abcdef";

    function escape(string memory value) internal pure returns (string memory) {
        bytes memory input = bytes(value);
        uint256 extra;
        for (uint256 i; i < input.length; ++i) {
            bytes1 c = input[i];
            if (c == '"' || c == "\\") extra += 1;
            else if (uint8(c) < 0x20) extra += 5; // \u00XX
        }
        if (extra == 0) return value;

        bytes memory output = new bytes(input.length + extra);
        uint256 j;
        for (uint256 i; i < input.length; ++i) {
            bytes1 c = input[i];
            if (c == '"' || c == "\\") {
                output[j++] = "\\";
                output[j++] = c;
            } else if (uint8(c) < 0x20) {
                output[j++] = "\\";
                output[j++] = "u";
                output[j++] = "0";
                output[j++] = "0";
                output[j++] = HEX_DIGITS[uint8(c) >> 4];
                output[j++] = HEX_DIGITS[uint8(c) & 0x0f];
            } else {
                output[j++] = c;
            }
        }
        return string(output);
    }
}
