//! tuolaji
